"""Stage 3, lay out: layouts read from YAML (read) with their element kinds (elements/),
turned by a Renderer into Faces (faces): drawing operations in points with every text
already set (text, textbox). Nothing here writes a PDF."""
