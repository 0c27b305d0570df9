"""The organiser's pages: server-rendered, with htmx for the parts that change on their own
(a generation job, the tables still playing). Thin: each view reads through a selector or
calls one service, and shows a refusal as a message."""
