// Catches an exception while rendering results, so one chart that cannot draw a result shows
// a message instead of unmounting the whole app. `resetKey` clears it when the result changes.

import { Component, type ReactNode } from 'react';

interface Props {
  resetKey: unknown;
  children: ReactNode;
}

interface State {
  error: Error | null;
  key: unknown;
}

export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, key: undefined };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  render() {
    if (this.state.error) {
      return (
        <div className="notice" role="alert" data-testid="render-error">
          These results could not be drawn: {this.state.error.message}. The numbers above are complete; please report the
          scenario.
        </div>
      );
    }
    return this.props.children;
  }
}
