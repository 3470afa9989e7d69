"""The LLM behind one small interface (client.py), the embedded llama.cpp server
(server.py) and the session that starts it only when a stage first needs it (session.py)."""
