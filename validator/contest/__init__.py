"""Running a challenge: checking a folder of entries, finding copies, ranking, the prize draw."""
