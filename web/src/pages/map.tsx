export function MapPage() {
  return (
    <section aria-labelledby="map-title">
      <h1 id="map-title">Map</h1>
      <p>Not built yet.</p>
    </section>
  );
}
