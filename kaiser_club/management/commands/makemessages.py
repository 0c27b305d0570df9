"""``makemessages`` as Django's, with ``N_`` and ``Np_`` extracted too: the markers of a
sentence kept as a template and rendered in the reader's language (``kaiser_club.sentences``;
the pure modules ``scoring.rules`` and ``tournaments.pairing`` have their own no-op ``N_``).

The catalogue is made with ``manage.py makemessages -l fr --no-obsolete``."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_", "--keyword=Np_:1,2"]
