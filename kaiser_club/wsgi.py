import os

from django.core.wsgi import get_wsgi_application

from kaiser_club.chunked import read_chunked_bodies
from kaiser_club.unread_body import linger_after_unread_body

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiser_club.settings.production")
# A chunked body is read within the limit and passed on with its length (kaiser_club/chunked.py);
# a 413 answered before the body was read drains it after the answer (kaiser_club/unread_body.py).
application = linger_after_unread_body(read_chunked_bodies(get_wsgi_application()))
