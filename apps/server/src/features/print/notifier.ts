/** Where print administrators hear of a paid order besides the in-app list (e.g. a messaging robot). */
export interface PrintNotifier {
  send(text: string): Promise<void>;
}

/** Posts `{ msgtype: 'text', text: { content } }` to a webhook (the enterprise messaging robots' format). */
export class WebhookNotifier implements PrintNotifier {
  constructor(
    private readonly url: string,
    private readonly log: (message: string) => void,
  ) {}
  async send(text: string): Promise<void> {
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ msgtype: 'text', text: { content: text } }),
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) this.log(`print notice webhook answered ${response.status}`);
    } catch (error) {
      this.log(`print notice webhook failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
