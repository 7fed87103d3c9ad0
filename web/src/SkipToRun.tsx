// The page's first link for keyboard users: it skips the lessons and the editor to Run.

export function SkipToRun() {
  return (
    <a
      href="#run-controls"
      className="skip-link"
      data-testid="skip-to-run"
      onClick={(e) => {
        e.preventDefault();
        // Run, or while it cannot be pressed (the scenario is being checked), its group.
        const run = document.querySelector<HTMLButtonElement>('[data-testid="run"]');
        if (run && !run.disabled) run.focus();
        else document.getElementById('run-controls')?.focus();
      }}
    >
      Skip to Run
    </a>
  );
}
