"""Rules engines (one package per game) and the shared chunked runner."""
