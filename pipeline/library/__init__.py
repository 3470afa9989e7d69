"""Work across talks (the library layer): what the site makes of many articles together,
beside the per-talk stages. Today: topics (topics.py)."""
