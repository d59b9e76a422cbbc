package crawler

import "github.com/fractle/mandelbot/internal/trap"

// trapDefaults turns the trap defences on unless asked otherwise (issue 29): a zero
// CalendarYears is trap.DefaultCalendarYears and a zero Frontier.MaxPagesPerOrigin is
// trap.DefaultPageBudget; a negative value of either turns that defence off (the frontier and
// trap.CheckCalendar read a value <= 0 as none).
func (o *Options) trapDefaults() {
	if o.CalendarYears == 0 {
		o.CalendarYears = trap.DefaultCalendarYears
	}
	if o.Frontier.MaxPagesPerOrigin == 0 {
		o.Frontier.MaxPagesPerOrigin = trap.DefaultPageBudget
	}
}
