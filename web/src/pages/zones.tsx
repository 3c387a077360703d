export function ZonesPage() {
  return (
    <section aria-labelledby="zones-title">
      <h1 id="zones-title">Zones</h1>
      <p>Not built yet.</p>
    </section>
  );
}
