// The season view (/season): its tables and chart come from /season.html, made on the host once per change
// of the league. While they are being made the host says so (503 with Retry-After) and the page asks again;
// what cannot be made is said in one line.
const main = document.getElementById("season");
const wait = document.getElementById("season-wait");
const lang = document.documentElement.lang === "en" ? "en" : "de";

async function load() {
  let answer;
  try {
    answer = await fetch(`/season.html?lang=${lang}`);
  } catch (e) {
    setTimeout(load, 5000);
    return;
  }
  if (answer.ok) {
    main.innerHTML = await answer.text();
    main.setAttribute("aria-busy", "false");
    return;
  }
  try {
    wait.textContent = (await answer.json()).error;
  } catch (e) {
    wait.textContent = String(answer.status);
  }
  const again = Number(answer.headers.get("Retry-After"));
  if (again > 0) setTimeout(load, 1000 * again);
}
load();
