"""What every stage stands on: problems with their file:line:col (errors), the rule that
files stay inside the game folder (paths), atomic output under --out (output), signals that
end a run (signals), and work done in a forked process (forked). Imports no other package."""
