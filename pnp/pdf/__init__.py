"""The PDF file itself: a reportlab canvas that writes each page as soon as it is finished.
The one home of reportlab's internals (tests/code/test_fences.py lists them); nothing here
knows about games, cards or layouts."""
