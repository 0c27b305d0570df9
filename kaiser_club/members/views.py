"""The members pages: thin views that check the role, call one service, and render."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ..actors import Actor
from ..models import Club, FormerMembership, Membership, Player
from ..page_errors import refusal_kept, refusal_shown
from ..people import Ambiguity, ChooseRecord, facts_of, parse_choice
from ..refusals import role_needed
from ..roles import Role
from ..selectors import clubs_for_user, player_for_user, role_in_club
from . import csv_io, invitations, services
from .duplicates import likely_duplicates
from .forms import (
    CsvConfirmForm,
    CsvUploadForm,
    InvitationSignUpForm,
    MemberAddExistingForm,
    MemberAddForm,
    MergeForm,
    RoleForm,
)
from .merge import player_merge, require_may_merge
from .selectors import club_members, club_past_facts, membership_in_club, players_managed_by


def club_for(request: HttpRequest, slug: str, *, at_least: Role) -> tuple[Club, Role]:
    """The club and the user's role in it. Not a member: 404 (as for a club that does not
    exist). A member whose role is too low: 403."""
    club = Club.objects.filter(slug=slug).first()
    role = role_in_club(user=request.user, club_id=club.id) if club is not None else None
    if club is None or role is None:  # the same answer: nothing said of another club
        raise Http404(_("No such club, or you are not a member of it."))
    if not role.includes(at_least):
        raise PermissionDenied(role_needed(club, at_least).message)
    return club, role


def member_for(club: Club, membership_id: int) -> Membership:
    membership = membership_in_club(club=club, membership_id=membership_id)
    if membership is None:
        raise Http404(_("No such member of this club."))
    return membership


@login_required
def club_list(request: HttpRequest) -> HttpResponse:
    clubs = clubs_for_user(user=request.user).order_by("name")
    return render(request, "kaiser_club/club_list.html", {"clubs": clubs})


@login_required
def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club, role = club_for(request, slug, at_least=Role.PLAYER)
    members = list(club_members(club=club))
    return render(
        request,
        "kaiser_club/club_detail.html",
        {
            "club": club,
            "role": role,
            "is_admin": role.includes(Role.CLUB_ADMIN),
            "members": members,
            "roles": Role.choices,
        },
    )


def _other_players(request: HttpRequest, club: Club) -> QuerySet[Player]:
    return players_managed_by(user=request.user).exclude(memberships__club=club)


@login_required
@require_http_methods(["GET", "POST"])
def member_add(request: HttpRequest, slug: str) -> HttpResponse:
    club, _role = club_for(request, slug, at_least=Role.CLUB_ADMIN)
    others = _other_players(request, club)
    new_form = MemberAddForm(prefix="new")
    existing_form = MemberAddExistingForm(prefix="existing", players=others)
    choose: Ambiguity | None = None
    if request.method == "POST" and "existing-player" in request.POST:
        existing_form = MemberAddExistingForm(request.POST, prefix="existing", players=others)
        if existing_form.is_valid():
            with refusal_shown(request, form=existing_form) as refused:
                membership = services.member_add_existing_by(
                    actor=Actor.of(request.user),
                    club=club,
                    player=existing_form.cleaned_data["player"],
                    role=Role(existing_form.cleaned_data["role"]),
                )
            if not refused:
                messages.success(
                    request, _("%(name)s is now a member.") % {"name": membership.player.name}
                )
                return redirect("clubs:detail", slug=club.slug)
    elif request.method == "POST":
        new_form = MemberAddForm(request.POST, prefix="new")
        if new_form.is_valid():
            data = new_form.cleaned_data
            try:
                with refusal_shown(request, form=new_form, passes=(ChooseRecord,)) as refused:
                    membership = services.member_add(
                        club=club,
                        name=data["name"],
                        email=data["email"],
                        role=Role(data["role"]),
                        actor=Actor.of(request.user),
                        # Which record the person is, once the page asked: an id, or "new".
                        choice=parse_choice(request.POST.get("new-choice")),
                    )
            except ChooseRecord as exc:
                choose = exc.ambiguities[0]
            if choose is None and not refused:
                messages.success(
                    request,
                    _("%(name)s is now a member. Make an invitation link so they can sign in.")
                    % {"name": membership.player.name},
                )
                return redirect("clubs:detail", slug=club.slug)
    return render(
        request,
        "kaiser_club/member_add.html",
        {
            "club": club,
            "form": new_form,
            "existing_form": existing_form,
            "has_others": others.exists(),
            "choose": choose,
        },
        status=409 if choose is not None else 200,
    )


@login_required
def members_past(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's past: former members, its visitors and the players of its partnerships,
    each with what tells it apart, to open, add again as the same record, or merge."""
    club, _role = club_for(request, slug, at_least=Role.CLUB_ADMIN)
    former = dict(FormerMembership.objects.filter(club=club).values_list("player_id", "role"))
    rows = [
        (facts, former.get(facts.player.id, Role.PLAYER)) for facts in club_past_facts(club=club)
    ]
    return render(request, "kaiser_club/members_past.html", {"club": club, "rows": rows})


@login_required
@require_POST
def member_role(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    club, _role = club_for(request, slug, at_least=Role.CLUB_ADMIN)
    membership = member_for(club, membership_id)
    form = RoleForm(request.POST)
    error = ""
    if form.is_valid():
        with refusal_kept() as refused:  # said in the row, or as a message
            membership = services.member_change_role_by(
                actor=Actor.of(request.user),
                membership=membership,
                role=Role(form.cleaned_data["role"]),
            )
        error = refused.message
    else:
        error = _("Pick one of the roles.")
    if getattr(request, "htmx", False):
        row = club_members(club=club).filter(id=membership_id).first()
        return render(
            request,
            "kaiser_club/_member_row.html",
            {
                "club": club,
                "m": row or membership,
                "is_admin": True,
                "roles": Role.choices,
                "row_error": error,
            },
            status=400 if error else 200,
        )
    if error:
        messages.error(request, error)
    else:
        messages.success(
            request,
            _("%(name)s is now %(role)s.")
            % {"name": membership.player.name, "role": Role(membership.role).label},
        )
    return redirect("clubs:detail", slug=club.slug)


@login_required
@require_http_methods(["GET", "POST"])
def member_remove(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    club, _role = club_for(request, slug, at_least=Role.CLUB_ADMIN)
    membership = member_for(club, membership_id)
    if request.method == "POST":
        with refusal_shown(request) as refused:
            player = services.member_remove_by(actor=Actor.of(request.user), membership=membership)
        if not refused:
            messages.success(
                request,
                _("%(name)s is no longer a member of %(club)s; their games are kept.")
                % {"name": player.name, "club": club.name},
            )
        return redirect("clubs:detail", slug=club.slug)
    return render(request, "kaiser_club/member_remove.html", {"club": club, "m": membership})


@login_required
@require_POST
def member_invite(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    club, _role = club_for(request, slug, at_least=Role.CLUB_ADMIN)
    membership = member_for(club, membership_id)
    with refusal_shown(request) as refused:
        made = invitations.invitation_create_by(actor=Actor.of(request.user), membership=membership)
    if refused:
        return redirect("clubs:detail", slug=club.slug)
    link = request.build_absolute_uri(reverse("invitation", kwargs={"token": made.token}))
    return render(
        request,
        "kaiser_club/invitation_link.html",
        {"club": club, "m": membership, "link": link, "invitation": made.invitation},
    )


@login_required
@require_http_methods(["GET", "POST"])
def members_import(request: HttpRequest, slug: str) -> HttpResponse:
    club, _role = club_for(request, slug, at_least=Role.CLUB_ADMIN)
    upload = CsvUploadForm()
    preview = None
    confirm = None
    if request.method == "POST" and "confirm" in request.POST:
        confirm = CsvConfirmForm(request.POST)
        if confirm.is_valid():
            text = confirm.cleaned_data["text"]
            actor = Actor.of(request.user)
            with refusal_shown(request) as refused:
                csv_io.check_size(text)
                done = csv_io.members_csv_import(club=club, text=text, actor=actor)
            if refused:
                preview = csv_io.members_csv_preview(club=club, text=text, actor=actor)
            else:
                messages.success(
                    request,
                    _(
                        "Imported: %(new)d new members, %(again)d members again (the same "
                        "records), %(updated)d updated, %(same)d unchanged."
                    )
                    % {
                        "new": done.created,
                        "again": done.again,
                        "updated": done.updated,
                        "same": done.unchanged,
                    },
                )
                return redirect("clubs:detail", slug=club.slug)
    elif request.method == "POST":
        upload = CsvUploadForm(request.POST, request.FILES)
        if upload.is_valid():
            with refusal_kept() as refused:  # said under the file, whichever way it came
                file = upload.cleaned_data.get("file")
                # Read no further than one byte past what an import takes: decode refuses it.
                text = (
                    csv_io.decode(file.read(csv_io.MAX_BYTES + 1))
                    if file
                    else upload.cleaned_data["text"]
                )
                csv_io.check_size(text)
            if refused:
                upload.add_error("file", refused.message)
            else:
                preview = csv_io.members_csv_preview(
                    club=club, text=text, actor=Actor.of(request.user)
                )
                confirm = CsvConfirmForm(initial={"text": text})
    return render(
        request,
        "kaiser_club/members_import.html",
        {"club": club, "upload": upload, "preview": preview, "confirm": confirm},
        status=400 if preview is not None and preview.errors else 200,
    )


@login_required
def members_export(request: HttpRequest, slug: str) -> HttpResponse:
    club, _role = club_for(request, slug, at_least=Role.CLUB_ADMIN)
    response = HttpResponse(
        csv_io.members_csv_export(club=club), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{club.slug}-members.csv"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def members_merge(request: HttpRequest, slug: str) -> HttpResponse:
    club, _role = club_for(request, slug, at_least=Role.CLUB_ADMIN)
    players = players_managed_by(user=request.user)
    form = MergeForm(request.GET or None, players=players)
    confirming = False
    if request.method == "POST":
        form = MergeForm(request.POST, players=players)
        if form.is_valid():
            keep, duplicate = form.cleaned_data["keep"], form.cleaned_data["duplicate"]
            actor = Actor.of(request.user)
            with refusal_shown(request, form=form):
                if not form.cleaned_data["confirmed"]:
                    require_may_merge(actor=actor, keep=keep, duplicate=duplicate)
                    confirming = True
                else:
                    report = player_merge(actor=actor, keep_id=keep.id, duplicate_id=duplicate.id)
                    messages.success(request, report.summary())
                    return redirect("clubs:detail", slug=club.slug)
    compared = []
    if form.is_bound and form.is_valid():
        facts = facts_of([form.cleaned_data["keep"], form.cleaned_data["duplicate"]], club=club)
        compared = [
            facts[form.cleaned_data["keep"].id],
            facts[form.cleaned_data["duplicate"].id],
        ]
    return render(
        request,
        "kaiser_club/members_merge.html",
        {
            "club": club,
            "form": form,
            "confirming": confirming,
            "compared": compared,
            "suggestions": [] if confirming else likely_duplicates(club=club),
        },
        status=400 if request.method == "POST" and form.errors else 200,
    )


@require_http_methods(["GET", "POST"])
def invitation_open(request: HttpRequest, token: str) -> HttpResponse:
    """Anyone with the link: make an account (or use the one you are signed in with)."""
    with refusal_kept() as refused:  # said in place of the invitation
        invitation = invitations.invitation_check(token=token)
    if refused:
        return render(
            request,
            "kaiser_club/invitation_open.html",
            {"refusal": refused.message},
            status=refused.status,
        )
    own = player_for_user(request.user)
    form = InvitationSignUpForm()
    if request.method == "POST":
        if request.user.is_authenticated:
            with refusal_shown(request) as refused:
                accepted = invitations.invitation_accept(token=token, user=request.user)
            if refused:
                return redirect("invitation", token=token)
            messages.success(
                request,
                _("Welcome to %(club)s, %(name)s.")
                % {"club": invitation.club.name, "name": accepted.player.name},
            )
            return redirect("clubs:detail", slug=invitation.club.slug)
        form = InvitationSignUpForm(request.POST)
        if form.is_valid():
            with refusal_shown(request, form=form) as refused:
                user = invitations.invitation_sign_up(
                    token=token,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                )
            if not refused:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                messages.success(
                    request,
                    _("Welcome to %(club)s. You sign in as %(user)s from now on.")
                    % {"club": invitation.club.name, "user": user.get_username()},
                )
                return redirect("clubs:detail", slug=invitation.club.slug)
    return render(
        request,
        "kaiser_club/invitation_open.html",
        {"invitation": invitation, "form": form, "own": own},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def player_privacy(request: HttpRequest) -> HttpResponse:
    """A player says whether their page is public. Only the player themself can."""
    player = player_for_user(request.user)
    if player is None:
        raise Http404(_("Your account has no player record."))
    services.player_set_public(player=player, is_public=request.POST.get("is_public") == "on")
    messages.success(
        request,
        _("Your page is now public.")
        if player.is_public
        else _("Your page is now visible to your clubs' members only."),
    )
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("home")
    return redirect(target)
