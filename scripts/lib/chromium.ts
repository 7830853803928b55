/**
 * Debian's Chromium (`apt-get install chromium`; .ci/run installs it): the browser of the e2e suite, of
 * Lighthouse and of the page-timing scripts. Nothing downloads a browser of its own.
 */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
