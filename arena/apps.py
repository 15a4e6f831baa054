from django.apps import AppConfig


class ArenaConfig(AppConfig):
    name = "arena"
    verbose_name = "Arena"

    def ready(self) -> None:
        from arena.agents.botzone import program_seating_refusal
        from arena.evaluate.services import evaluation_hold_on_budget, evaluation_stop_on_budget
        from arena.play.broadcast import announce_on_match_updated
        from arena.record.signals import decision_due, match_finished, match_paused, match_seating, match_updated
        from arena.runner.tasks import match_resume_enqueue
        from arena.studies.tasks import void_check_on_decision_due
        from arena.tournaments.services import tournament_advance_on_match_finished

        match_finished.connect(tournament_advance_on_match_finished, dispatch_uid="tournament_advance")
        # After the tournament's receiver, so matches it has just scheduled are cancelled too.
        match_finished.connect(evaluation_stop_on_budget, dispatch_uid="evaluation_budget")
        match_updated.connect(announce_on_match_updated, dispatch_uid="live_pages")
        match_paused.connect(match_resume_enqueue, dispatch_uid="match_resume")
        decision_due.connect(evaluation_hold_on_budget, dispatch_uid="evaluation_budget_cap")
        decision_due.connect(void_check_on_decision_due, dispatch_uid="study_void_check")
        match_seating.connect(program_seating_refusal, dispatch_uid="botzone_programs")
