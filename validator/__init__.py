"""road300: validate Road to 300 challenge records against the official dice file."""

__version__ = "0.1.0"
