"""Stage 5, write: Faces and imposed pages drawn into PDFs (pdf), components larger than
the paper in pieces (pieces), cut files for cutting machines (cutfiles), and the manifest
of what was drawn, for errata (manifest)."""
