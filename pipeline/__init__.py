"""talk2article: turn a recorded technical talk and its deck into grounded articles.

One folder per stage, in the order data flows (the table is pipeline/stages.py):
talk -> deck -> transcript -> timeline -> evidence -> writing (outline, draft) -> review
-> article. Beside them: schema/ (contracts), llm/, runner.py (one stage runner),
settings.py (every stage's options), fingerprint.py; core/ is what they share (store,
prompts, models, text, checks) and imports no stage. No Prefect import here; flows/ wires
the stages together.
"""

__version__ = "0.1.0"
