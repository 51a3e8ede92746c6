// Cost of the files currently selected on the dashboard; the header shows it next to the balance.
// The dashboard writes it, the header reads it (null while nothing is selected).
import { createStore } from '../lib/store.js';

export const selectionCostStore = createStore<number | null>(null);
