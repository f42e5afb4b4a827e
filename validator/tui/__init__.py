"""`road300 play`: a Textual terminal game on a challenge's dice file, writing a record that is
valid by construction (game in `game`, record file in `save`, screen in `app`)."""
