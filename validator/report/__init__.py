"""The annotated report of one record, and its analysis view, as models for every renderer."""
