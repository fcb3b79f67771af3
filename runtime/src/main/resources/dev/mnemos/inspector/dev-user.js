// Mnemos session inspector, dev mode only (docs/inspector.md, "From the Dev UI"): served and loaded only by a
// dev-mode build. The developer picks a user; every API call then carries the X-Mnemos-Dev-User header, which the
// dev-mode server (dev.mnemos.devmode) takes as that user, whatever authentication the application has.
// Loaded before inspector.js, whose api() adds window.mnemosDevHeaders() to each call.
(function () {
  'use strict';

  const KEY = 'mnemos.inspector.devUser';
  const HEADER = 'X-Mnemos-Dev-User';
  const base = new URL(document.querySelector('meta[name="mnemos-api-base"]').content, location.href);
  const $ = (id) => document.getElementById(id);
  const picked = () => sessionStorage.getItem(KEY);

  // The second header gets a bare 401 rather than the application's challenge, which could be a Basic password prompt.
  // The picked user, for inspector.js to name when the application has no profile to name them.
  window.mnemosDevUser = picked;
  window.mnemosDevHeaders = () => Object.assign({ 'X-Mnemos-Dev-Inspector': '1' }, picked() ? { [HEADER]: picked() } : {});

  function pick(user) {
    sessionStorage.setItem(KEY, user);
    sessionStorage.removeItem('mnemos.inspector.token');
    location.hash = '#/sessions';
    location.reload();
  }

  function node(tag, attrs, textContent) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) element.setAttribute(name, value);
    if (textContent) element.textContent = textContent;
    return element;
  }

  function form() {
    const box = node('form', { id: 'dev-pick-form', class: 'dev-pick' });
    box.append(node('h3', {}, 'Dev mode: open as a user'),
        node('p', {}, 'No credentials needed: in dev mode the inspector acts as the user you pick, '
            + 'whatever authentication the application has.'),
        node('label', { for: 'dev-pick-user' }, 'User id'), ' ',
        node('input', { id: 'dev-pick-user', autocomplete: 'off', spellcheck: 'false', required: '' }), ' ',
        node('button', { type: 'submit', id: 'dev-pick-open' }, 'Open as this user'),
        node('p', { id: 'dev-pick-label' }, 'Users with sessions in Redis:'),
        node('ul', { id: 'dev-pick-users' }));
    box.addEventListener('submit', (event) => {
      event.preventDefault();
      const user = $('dev-pick-user').value.trim();
      if (user) pick(user);
    });
    return box;
  }

  async function listUsers() {
    const list = $('dev-pick-users');
    try {
      const response = await fetch(new URL('v1/dev/users', base), { headers: { Accept: 'application/json' } });
      const users = response.ok ? await response.json() : [];
      for (const user of users) {
        const button = node('button', { type: 'button', class: 'dev-pick-user', 'data-user': user }, user);
        button.addEventListener('click', () => pick(user));
        const item = node('li');
        item.append(button);
        list.append(item);
      }
      if (users.length === 0) list.append(node('li', {}, 'None yet.'));
    } catch (e) {
      list.append(node('li', {}, 'The list of users could not be read: type a user id.'));
    }
  }

  const signin = $('view-signin');
  signin.insertBefore(form(), signin.querySelector('p'));
  listUsers();
  $('sign-out').addEventListener('click', () => sessionStorage.removeItem(KEY));
})();
