"""The PostgreSQL engine (``DATABASES["default"]["ENGINE"]`` on PostgreSQL): Django's, with a
cheaper health check (base.py)."""
