package anim

import "math"

// Ease maps a tween's progress u in [0, 1] to its eased progress.
type Ease uint8

// The easing functions (Penner's), in and out.
const (
	Linear Ease = iota
	QuadIn
	QuadOut
	QuadInOut
	CubicIn
	CubicOut
	CubicInOut
	SineInOut
	BackOut
	ElasticOut
)

// At is the eased progress at u.
func (e Ease) At(u float64) float64 {
	switch e {
	case QuadIn:
		return u * u
	case QuadOut:
		return u * (2 - u)
	case QuadInOut:
		if u < 0.5 {
			return 2 * u * u
		}
		return -1 + (4-2*u)*u
	case CubicIn:
		return u * u * u
	case CubicOut:
		v := u - 1
		return v*v*v + 1
	case CubicInOut:
		if u < 0.5 {
			return 4 * u * u * u
		}
		v := 2*u - 2
		return v*v*v/2 + 1
	case SineInOut:
		return -(math.Cos(math.Pi*u) - 1) / 2
	case BackOut:
		const c1 = 1.70158
		v := u - 1
		return 1 + (c1+1)*v*v*v + c1*v*v
	case ElasticOut:
		if u == 0 || u == 1 {
			return u
		}
		return math.Pow(2, -10*u)*math.Sin((u*10-0.75)*(2*math.Pi/3)) + 1
	}
	return u
}
