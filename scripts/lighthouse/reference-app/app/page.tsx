import { Counter } from './counter';

export const dynamic = 'force-dynamic';

export default function ReferencePage() {
  return (
    <section>
      <h1>Reference page</h1>
      <p>The framework alone: Next.js and React starting one client component.</p>
      <Counter />
    </section>
  );
}
