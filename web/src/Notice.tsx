// A message the user should read (a failure, a link that could not be opened) and a button to
// dismiss it: nothing when there is no message.

export function Notice({ message, onDismiss, testid }: { message: string | null | undefined; onDismiss: () => void; testid: string }) {
  if (!message) return null;
  return (
    <div className="notice" role="alert" data-testid={testid}>
      {message}
      <button type="button" className="quiet" onClick={onDismiss} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
