"""`road300 play`: a terminal game on a dice file that writes a record valid by construction."""

# The game in `game`, the record file in `save`, the screen in `app`.
