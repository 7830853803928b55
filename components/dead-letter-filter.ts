// The Dead letters page's filter form and the query string it makes: plain code, so the page's server render
// prefetches exactly the list the client's first query asks for.

/** The filter fields as the page's form holds them (empty: not set). */
export interface DeadLetterFilterForm {
  sourceTopic: string;
  sourcePartition: string;
  errorClass: string;
  key: string;
  from: string;
  to: string;
}

export const EMPTY_FILTER: DeadLetterFilterForm = {
  sourceTopic: '',
  sourcePartition: '',
  errorClass: '',
  key: '',
  from: '',
  to: '',
};

/** The filter as query parameters; datetime-local inputs are local times, sent as UTC ISO. */
export function filterParams(filter: DeadLetterFilterForm): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) {
    if (value.trim() === '') continue;
    params.set(name, name === 'from' || name === 'to' ? new Date(value).toISOString() : value.trim());
  }
  return params;
}
