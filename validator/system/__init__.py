"""Process and file plumbing: worker pools, files and folders written whole."""
