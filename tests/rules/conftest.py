"""Shared setup for the rules-engine tests.

This directory is deliberately not a package (no ``__init__.py``): as one it would be called
``rules`` and could shadow the engine it tests. The engine is imported from the repository root,
which ``pyproject.toml`` puts on ``sys.path`` (``pythonpath = ["."]``). Each test module keeps its
own one-line ``C("9S 9H JK")`` card helper so that it reads on its own.
"""
