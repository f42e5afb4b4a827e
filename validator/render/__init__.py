"""Renderers: one module per output (terminal, JSON, text, Markdown, HTML, SVG), and the
output-format registry; each takes a model and returns or writes text."""
