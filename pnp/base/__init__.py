"""What every stage stands on: problems with their file:line:col (errors), the rule that
files stay inside the game folder (paths), atomic output under --out (output), signals that
end a run (signals), work done in a forked process (forked), and what is computed from a file
remembered once per version of the file (versions). Imports no other package."""
