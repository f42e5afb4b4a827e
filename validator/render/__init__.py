"""Renderers: every output (terminal, JSON, text, Markdown, HTML, SVG), their registry, wording."""
