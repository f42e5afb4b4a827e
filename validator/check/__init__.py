"""Checking records: the replay of a record against the dice rows, one record file end to end,
and the explanation of a first illegal step."""
