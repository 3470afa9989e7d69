"""talk2article: turn a recorded technical talk and its deck into grounded articles.

Each stage is a plain typed function in its own module; `flows/` wires them together.
"""

__version__ = "0.1.0"
