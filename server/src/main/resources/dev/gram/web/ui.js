// gram web view: the small client layer. Every page works without it (links, forms and
// redirects); with it, pages follow the vault live, edits stay on the page, and a record's
// details open in place. Served from the jar; talks only to this server.
(function () {
  "use strict";

  var live = document.getElementById("live");

  function say(text) {
    if (live) {
      live.textContent = text;
    }
  }

  function parse(html) {
    return new DOMParser().parseFromString(html, "text/html");
  }

  function fetchText(url, options) {
    options = options || {};
    options.credentials = "same-origin";
    options.headers = Object.assign({ "X-Requested-With": "gram-ui" }, options.headers || {});
    return fetch(url, options).then(function (r) {
      return r.text().then(function (text) {
        return { status: r.status, ok: r.ok, url: r.url, text: text };
      });
    });
  }

  // Replaces an element with the same-id element of fetched HTML, keeping focus where it was
  // (by id) and the open details of records.
  function swap(old, fresh) {
    var active = document.activeElement;
    var focusId = active && old.contains(active) ? active.id : null;
    var focusName = active && old.contains(active) && !active.id ? active.getAttribute("aria-label") : null;
    var open = [];
    old.querySelectorAll("details[open]").forEach(function (d) {
      var rec = d.closest("[data-id]");
      if (rec) {
        open.push(rec.getAttribute("data-id"));
      }
    });
    old.replaceWith(fresh);
    open.forEach(function (id) {
      fresh.querySelectorAll('[data-id="' + CSS.escape(id) + '"] > details.more').forEach(function (d) {
        d.open = true;
        loadDetails(d);
      });
    });
    enhance(fresh);
    if (focusId && document.getElementById(focusId)) {
      document.getElementById(focusId).focus();
    } else if (focusName) {
      var again = fresh.querySelector('[aria-label="' + CSS.escape(focusName) + '"]');
      if (again) {
        again.focus();
      }
    }
  }

  // Everything marked data-live-src is fetched again when the vault changes.
  var refreshing = false;
  var again = false;
  function refresh() {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = true;
    var parts = Array.prototype.slice.call(document.querySelectorAll("[data-live-src]"));
    Promise.all(parts.map(function (el) {
      return fetchText(el.getAttribute("data-live-src")).then(function (r) {
        if (!r.ok) {
          return;
        }
        var doc = parse(r.text);
        var fresh = el.id ? doc.getElementById(el.id) : doc.body.firstElementChild;
        if (fresh && document.body.contains(el)) {
          swap(el, fresh);
        }
      });
    })).catch(function () {}).then(function () {
      refreshing = false;
      if (again) {
        again = false;
        refresh();
      }
    });
  }

  function follow() {
    var body = document.body;
    var path = body.getAttribute("data-live-path");
    var folder = body.getAttribute("data-live-folder");
    if (path === null && folder === null || !window.EventSource) {
      return;
    }
    var url = "/ui/events?" + (path !== null ? "path=" + encodeURIComponent(path) : "folder=" + encodeURIComponent(folder));
    var source = new EventSource(url);
    source.onopen = function () {
      body.setAttribute("data-live", "open");
    };
    source.onerror = function () {
      body.setAttribute("data-live", "retrying");
    };
    source.addEventListener("change", function (e) {
      var c = JSON.parse(e.data);
      var doc = document.getElementById("doc");
      if (doc && doc.getAttribute("data-path") === c.path && Number(doc.getAttribute("data-rev")) >= c.rev) {
        return;
      }
      say(c.kind === "removed" ? c.path + " was removed"
        : c.path + ": revision " + c.rev + " by " + (c.by || "another program") + (c.summary ? " (" + c.summary + ")" : ""));
      refresh();
    });
  }

  // Edits stay on the page: the document is replaced by its new revision, a conflict is shown
  // above it with its re-apply button.
  function submit(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) {
      data.append(submitter.name, submitter.value);
    }
    var body = new URLSearchParams();
    data.forEach(function (v, k) { body.append(k, v); });
    if (submitter) {
      submitter.disabled = true;
    }
    say("Saving…");
    return fetchText(form.action, {
      method: "POST",
      body: body,
      headers: { "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function (r) {
      var doc = parse(r.text);
      var old = document.getElementById("conflict");
      if (old) {
        old.remove();
      }
      var conflict = doc.getElementById("conflict");
      if (r.status === 409 && conflict) {
        var main = document.getElementById("main");
        var anchor = document.getElementById("doc") || main.firstElementChild;
        main.insertBefore(conflict, anchor);
        enhance(conflict);
        say("Not saved: the document changed meanwhile.");
        conflict.focus();
        return;
      }
      var fresh = doc.getElementById("doc");
      var current = document.getElementById("doc");
      if (r.ok && fresh && current) {
        swap(current, fresh);
        say("Saved: revision " + fresh.getAttribute("data-rev") + ".");
        if (form.classList.contains("record-edit") || form.classList.contains("reapply")) {
          var target = r.url.indexOf("#") >= 0 ? document.getElementById(r.url.split("#")[1]) : null;
          if (target) {
            target.scrollIntoView({ block: "nearest" });
          }
        }
        return;
      }
      if (r.ok) {
        window.location.assign(r.url);
        return;
      }
      var error = doc.querySelector(".error");
      say("Not saved: " + (error ? error.textContent : "the server answered " + r.status));
    }).catch(function () {
      say("Not saved: the server could not be reached.");
    }).then(function () {
      if (submitter && document.body.contains(submitter)) {
        submitter.disabled = false;
      }
    });
  }

  function loadDetails(details) {
    var body = details.querySelector(".more-body[data-src]");
    if (!body || body.getAttribute("data-loaded")) {
      return;
    }
    body.setAttribute("data-loaded", "1");
    fetchText(body.getAttribute("data-src")).then(function (r) {
      if (r.ok) {
        body.innerHTML = r.text;
        enhance(body);
      } else {
        body.removeAttribute("data-loaded");
      }
    });
  }

  function enhance(root) {
    root.querySelectorAll("details.more").forEach(function (d) {
      if (!d.dataset.enhanced) {
        d.dataset.enhanced = "1";
        d.addEventListener("toggle", function () {
          if (d.open) {
            loadDetails(d);
          }
        });
      }
    });
    root.querySelectorAll("form.edit-form").forEach(function (f) {
      if (!f.dataset.enhanced) {
        f.dataset.enhanced = "1";
        f.addEventListener("submit", function (e) {
          e.preventDefault();
          submit(f, e.submitter);
        });
      }
    });
    root.querySelectorAll("[data-print]").forEach(function (b) {
      b.hidden = false;
      b.onclick = function () { window.print(); };
    });
  }

  // "/" goes to the search box, as on many sites; not while typing.
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.key === "/" && !e.ctrlKey && !e.metaKey && !e.altKey
        && !(t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) {
      var q = document.getElementById("quick-q");
      if (q) {
        e.preventDefault();
        q.focus();
      }
    }
  });

  enhance(document);
  follow();
  window.gramReady = performance.now();
  document.documentElement.setAttribute("data-ready", "1");
})();
