// GET /persons/{id}, /appointments, /compensation-history (openapi.json getPerson,
// getPersonAppointments, getPersonCompensationHistory).
import type { Dataset, PersonRecord } from "../data/model";
import { ApiError } from "../lib/api-error";
import { attribution } from "../lib/attribution";
import { reasonFor } from "../lib/empty-reason";
import { defineRoute } from "../lib/route";

function findPerson(dataset: Dataset, id: string): PersonRecord {
  const person = dataset.persons.get(id);
  if (person === undefined) throw ApiError.notFound(`Person ${id} was not found.`);
  return person;
}

export const personRoute = defineRoute({
  operationId: "getPerson",
  handle({ state, params }) {
    const person = findPerson(state.dataset(), params.reqStr("id"));
    return {
      person_id: person.person_id,
      name: person.name,
      birth_date: person.birth_date,
      current_appointments: person.current_appointments,
      attribution: attribution(),
    };
  },
});

export const personAppointmentsRoute = defineRoute({
  operationId: "getPersonAppointments",
  handle({ state, params }) {
    const person = findPerson(state.dataset(), params.reqStr("id"));
    // openapi.json getPersonAppointments: current first, then by tenure_years descending.
    const appointments = [...person.appointments].sort(
      (a, b) => Number(b.is_current) - Number(a.is_current) || b.tenure_years - a.tenure_years,
    );
    return {
      person_id: person.person_id,
      name: person.name,
      appointments,
      reason: reasonFor(appointments.length, "No appointment history for this person."),
      attribution: attribution(),
    };
  },
});

export const personCompensationRoute = defineRoute({
  operationId: "getPersonCompensationHistory",
  handle({ state, params }) {
    const person = findPerson(state.dataset(), params.reqStr("id"));
    return {
      person_id: person.person_id,
      name: person.name,
      companies: person.compensation,
      reason: reasonFor(
        person.compensation.length,
        "No individually disclosed compensation (100 million yen or more) for this person.",
      ),
      attribution: attribution(),
    };
  },
});
