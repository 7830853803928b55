'use client';

import { useState } from 'react';

export function Counter() {
  const [clicks, setClicks] = useState(0);
  return (
    <button type="button" onClick={() => setClicks((n) => n + 1)}>
      Clicked {clicks} times
    </button>
  );
}
