"""Puts python/ on sys.path so the tests import parcae_tools without installing it."""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a longer run (tens of seconds)")
