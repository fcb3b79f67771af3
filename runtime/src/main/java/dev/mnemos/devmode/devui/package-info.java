/**
 * Dev-mode only: the Dev UI page of Mnemos' card, <em>Sessions and traces</em>, and its JSON-RPC service, which read
 * the stores directly and so need no REST API. The deployment module drops every class of this package from any
 * build without Mnemos' dev-mode tools (production, tests, {@code quarkus build}).
 */
package dev.mnemos.devmode.devui;
