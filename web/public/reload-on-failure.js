// Loaded before the workspace's own scripts, as a file of its own (the page's policy allows no
// inline script). When the page's scripts or styles fail to load before the workspace starts (the
// server restarting, a release replaced meanwhile), the page says so and loads itself again after
// a wait that doubles each time, instead of staying blank. The workspace clears the count once it
// has started, and from then on handles the failures of what it loads itself.
/* global window, document, navigator, localStorage, sessionStorage, location, addEventListener, setTimeout */
(function () {
  var KEY = 'lokator.reloads';
  var WORDS = {
    ru: 'Сервер недоступен или обновляется: страница загрузится снова через несколько секунд.',
    en: 'The server is unreachable or restarting: the page will load again in a few seconds.',
  };
  function language() {
    try {
      var stored = localStorage.getItem('lokator.language');
      if (stored === 'ru' || stored === 'en') return stored;
    } catch {
      // No storage: the browser's language decides.
    }
    return String(navigator.language || 'en').toLowerCase().indexOf('ru') === 0 ? 'ru' : 'en';
  }
  addEventListener(
    'error',
    function (event) {
      var element = event.target;
      if (window.lokatorStarted || !element || (element.tagName !== 'SCRIPT' && element.tagName !== 'LINK')) return;
      if (window.lokatorReloading) return;
      window.lokatorReloading = true;
      var tries = 0;
      try {
        tries = Number(sessionStorage.getItem(KEY)) || 0;
        sessionStorage.setItem(KEY, String(tries + 1));
      } catch {
        // No storage: every try waits the first wait.
      }
      var show = function () {
        var note = document.getElementById('reload-note');
        if (!note) return;
        note.lang = language();
        note.textContent = WORDS[note.lang];
        note.hidden = false;
      };
      if (document.readyState === 'loading') addEventListener('DOMContentLoaded', show);
      else show();
      setTimeout(function () {
        location.reload();
      }, Math.min(30000, 1000 * Math.pow(2, tries)));
    },
    true,
  );
})();
