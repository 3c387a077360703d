export function DeliveriesPage() {
  return (
    <section aria-labelledby="deliveries-title">
      <h1 id="deliveries-title">Deliveries</h1>
      <p>Not built yet.</p>
    </section>
  );
}
