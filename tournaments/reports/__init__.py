"""PDF reports: standings, the bracket, a round's tables, score sheets (filled and blank) and
table cards, rendered by WeasyPrint in a Celery worker.

- ``selectors``: what each report shows, read in a fixed number of queries.
- ``render``: a job's HTML (Django templates under ``templates/reports/``) and its PDF.
- ``services``: asking for a report (a ``ReportJob`` row first), running a job (claimed once,
  written atomically), re-running a failed one, and the sweep that re-sends stale jobs.
- ``tasks``: the Celery tasks, which take ids and call the services.
- ``views`` / ``urls``: the organiser's reports page and the download.
"""
