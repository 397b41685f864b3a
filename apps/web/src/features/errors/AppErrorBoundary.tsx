import { Component, type ErrorInfo, type ReactNode } from "react";
import SystemErrorPage from "./SystemErrorPage";

type State = { failed: boolean };

/** A render error anywhere shows the system error page instead of a blank screen. */
type Props = { children: ReactNode /** A new value (the path) clears a shown error. */; resetKey?: string };

export class AppErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error("Unhandled render error", error, info.componentStack);
  }

  override componentDidUpdate(prev: Props): void {
    if (this.state.failed && prev.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render() {
    return this.state.failed ? <SystemErrorPage /> : this.props.children;
  }
}
