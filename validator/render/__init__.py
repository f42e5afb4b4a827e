"""Renderers: every output (terminal, JSON, text, Markdown, HTML, SVG, site, replies), registry."""
