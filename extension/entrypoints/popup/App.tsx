/** The popup's root. The library, generation and task views arrive with the popup issue. */
export function App() {
  return (
    <main>
      <h1>Arkbridge</h1>
      <p>Connect the extension to your team's proxy in the options page to get started.</p>
    </main>
  );
}
