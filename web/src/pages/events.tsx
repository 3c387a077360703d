export function EventsPage({ route: _route }: { route: string[] }) {
  return (
    <section aria-labelledby="events-title">
      <h1 id="events-title">Events</h1>
      <p>Not built yet.</p>
    </section>
  );
}
