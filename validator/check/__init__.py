"""Checking records: the replay, one record file end to end, the explanation of an illegal step."""
