/**
 * Signs `user` in to the dashboard at `baseUrl` and returns the session cookie (`name=value`) to send with
 * later requests. A refused sign-in or an answer without a cookie throws with the server's answer.
 */
export async function signInCookie(baseUrl: string, user: { name: string; password: string }): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ name: user.name, password: user.password }),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers.get('set-cookie');
  if (!cookie) throw new Error('sign-in set no cookie');
  return cookie.split(';')[0]!;
}
