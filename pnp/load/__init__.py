"""Stage 1, load: a game folder's YAML, CSV and XLSX read into the typed model (model),
every value with the file:line:col it came from; a value of the wrong type is reported
here, because the model cannot hold it."""
