// A game's options as form fields (the lobby's start form, the Playtests page's sessions): a
// checkbox, a list of choices or a number per option, with its help and its default; and the
// options a form holds, those that differ from the rules' defaults.

import { h } from "./dom.js";

/** A value as words: a choice's name with spaces, on or off, none for no value. */
function words(value) {
  if (value === null || value === undefined || value === "") return "none";
  if (typeof value === "boolean") return value ? "on" : "off";
  return String(value).replaceAll("_", " ");
}

/** One option: a checkbox, a list of choices, or a number, with its help and default. */
export function optionField(option) {
  const id = `option-${option.name}`;
  let control;
  if (typeof option.default === "boolean") {
    control = h("input", { id, type: "checkbox", checked: option.default, dataset: { option: option.name, kind: "bool" } });
  } else if (option.choices) {
    control = h("select", { id, dataset: { option: option.name, kind: "text" } },
      option.choices.map((choice) => h("option", { value: choice, selected: choice === option.default }, words(choice))));
  } else if (typeof option.default === "number") {
    control = h("input", { id, type: "number", value: option.default, min: option.minimum ?? null, max: option.maximum ?? null, step: Number.isInteger(option.default) ? 1 : "any", dataset: { option: option.name, kind: "number" } });
  } else {
    control = h("input", { id, value: option.default, placeholder: option.default === null ? "none" : null, dataset: { option: option.name, kind: "text" } });
  }
  return h("div", { class: "form-row option" },
    h("label", { for: id }, option.name.replaceAll("_", " ")),
    control,
    h("span", { class: "help" }, `${option.help} (default: ${words(option.default)})`));
}

export function readOptions(game) {
  const options = {};
  for (const option of game.options) {
    const control = document.getElementById(`option-${option.name}`);
    const kind = control.dataset.kind;
    const value = kind === "bool" ? control.checked : kind === "number" ? Number(control.value) : control.value;
    if (option.default === null && value === "") continue; // an empty box is the default's "none"
    if (value !== option.default) options[option.name] = value; // only what differs from the rules' default
  }
  return options;
}
