import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorPage } from './error-page.tsx';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** When this changes (e.g. the address), a crashed boundary tries its children again. */
  resetKey?: string;
  /** Whether the fallback is the page's main landmark (outside the site layout). */
  landmark?: boolean;
}

interface ErrorBoundaryState {
  failed: boolean;
}

/** Shows the fallback error page of spec §2 when a render below it throws. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Render failed', error, info.componentStack);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render(): ReactNode {
    return this.state.failed ? <ErrorPage landmark={this.props.landmark} /> : this.props.children;
  }
}
