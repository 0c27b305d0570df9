import os

from django.core.wsgi import get_wsgi_application

from kaiser_club.linger import linger_after_unread_body

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiser_club.settings.production")
application = linger_after_unread_body(get_wsgi_application())
